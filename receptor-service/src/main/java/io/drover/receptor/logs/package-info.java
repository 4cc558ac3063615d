/** Instance logs: the receptor reads them from the instance's cell and streams them to the client. */
package io.drover.receptor.logs;

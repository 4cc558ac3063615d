/** Authentication (HTTP Basic by default), the loopback-only dev mode, CORS and the 401/403 error shapes. */
package io.drover.receptor.web.security;

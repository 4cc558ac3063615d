/** Reads of what the database says about a cell's instances and the desired LRPs they run (writes go through the lifecycle). */
package io.drover.rep.records;

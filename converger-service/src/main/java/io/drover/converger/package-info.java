/** The converger service: its application class and settings; the loop lives in {@code pass}, the rules in {@code plan}. */
package io.drover.converger;

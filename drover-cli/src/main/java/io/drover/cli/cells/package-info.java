/** The cells: their capacity and use ({@code cells}) and what runs on each ({@code visualize}). */
package io.drover.cli.cells;

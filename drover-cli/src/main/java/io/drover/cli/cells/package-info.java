/**
 * The cells: their capacity and use ({@code cells}), what runs on each ({@code visualize}), and draining one
 * ({@code drain}, {@code undrain}).
 */
package io.drover.cli.cells;

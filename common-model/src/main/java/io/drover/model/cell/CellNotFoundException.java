package io.drover.model.cell;

/** No cell has this id: none ever registered, or its row was collected. */
public class CellNotFoundException extends RuntimeException {

    public CellNotFoundException(String cellId) {
        super("cell not found: " + cellId);
    }
}

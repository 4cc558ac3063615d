package io.drover.model.cell;

/** An amount of the three resources a cell offers and an instance uses. */
public record Resources(int memoryMb, int diskMb, int containers) {

    public static final Resources NONE = new Resources(0, 0, 0);

    public Resources plus(Resources other) {
        return new Resources(memoryMb + other.memoryMb, diskMb + other.diskMb, containers + other.containers);
    }

    public Resources minus(Resources other) {
        return new Resources(memoryMb - other.memoryMb, diskMb - other.diskMb, containers - other.containers);
    }

    /** The resources {@code need} asks for beyond these, comma-separated ("memory, disk"); empty when it fits. */
    public String lacking(Resources need) {
        java.util.List<String> lacking = new java.util.ArrayList<>();
        if (need.memoryMb > memoryMb) {
            lacking.add("memory");
        }
        if (need.diskMb > diskMb) {
            lacking.add("disk");
        }
        if (need.containers > containers) {
            lacking.add("containers");
        }
        return String.join(", ", lacking);
    }

    public boolean fits(Resources need) {
        return need.memoryMb <= memoryMb && need.diskMb <= diskMb && need.containers <= containers;
    }
}

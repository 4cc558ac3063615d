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

    public boolean fits(Resources need) {
        return need.memoryMb <= memoryMb && need.diskMb <= diskMb && need.containers <= containers;
    }
}

package io.drover.model.deployment;

/**
 * A number of instances given as a count ({@code "2"}) or as a share of the desired instances ({@code "25%"}), as
 * {@code max_surge} and {@code max_unavailable} are: a share follows the LRP when it is scaled mid-rollout.
 */
public record Amount(int value, boolean percent) {

    public Amount {
        if (value < 0 || percent && value > 100) {
            throw new IllegalArgumentException("must be a count >= 0 or a percentage from 0% to 100%: " + value
                    + (percent ? "%" : ""));
        }
    }

    /** Parses {@code "3"} or {@code "25%"}; throws {@link IllegalArgumentException} for anything else. */
    public static Amount parse(String text) {
        String t = text.strip();
        boolean percent = t.endsWith("%");
        String digits = percent ? t.substring(0, t.length() - 1).strip() : t;
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("must be a count like \"2\" or a percentage like \"25%\": " + text);
        }
        return new Amount(Integer.parseInt(digits), percent);
    }

    /** The count for {@code instances}: a share rounded up (a surge) or down (unavailability), as Kubernetes does. */
    public int of(int instances, boolean roundUp) {
        if (!percent) {
            return value;
        }
        long scaled = (long) instances * value;
        return (int) (roundUp ? (scaled + 99) / 100 : scaled / 100);
    }

    @Override
    public String toString() {
        return value + (percent ? "%" : "");
    }
}

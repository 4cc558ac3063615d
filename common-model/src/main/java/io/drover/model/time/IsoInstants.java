package io.drover.model.time;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * {@link Instant#toString()} (ISO-8601, UTC, the fraction in groups of three digits as needed), written without the
 * {@code DateTimeFormatter} machinery: every lifecycle event and every batched row write formats instants, and the
 * formatter's field resolution was 3 % of the JVM's samples in the benchmark's burst. Instants from 1970 to 9999 take
 * the short way; any other is formatted by {@link Instant#toString()} itself, so the text is always the same.
 */
public final class IsoInstants {

    /** 10000-01-01T00:00:00Z: from here on the year needs a sign and more than four digits. */
    private static final long YEAR_10000 = 253_402_300_800L;
    private static final int SECONDS_PER_DAY = 86_400;

    private IsoInstants() {
    }

    public static String format(Instant instant) {
        long seconds = instant.getEpochSecond();
        if (seconds < 0 || seconds >= YEAR_10000) {
            return instant.toString();
        }
        int nanos = instant.getNano();
        int fraction = fractionDigits(nanos);
        byte[] text = new byte[20 + (fraction == 0 ? 0 : fraction + 1)];
        long days = seconds / SECONDS_PER_DAY;
        int secondOfDay = (int) (seconds % SECONDS_PER_DAY);
        // the civil date of a day count (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms"), days >= 0 here
        long z = days + 719_468;
        long era = z / 146_097;
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long shiftedMonth = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
        int month = (int) (shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
        int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        digits(text, 0, year, 4);
        text[4] = '-';
        digits(text, 5, month, 2);
        text[7] = '-';
        digits(text, 8, day, 2);
        text[10] = 'T';
        digits(text, 11, secondOfDay / 3_600, 2);
        text[13] = ':';
        digits(text, 14, secondOfDay / 60 % 60, 2);
        text[16] = ':';
        digits(text, 17, secondOfDay % 60, 2);
        int at = 19;
        if (fraction != 0) {
            text[at++] = '.';
            digits(text, at, nanos / pow10(9 - fraction), fraction);
            at += fraction;
        }
        text[at] = 'Z';
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    /** 3, 6 or 9: the fewest groups of three digits that show the fraction exactly (0 for none). */
    private static int fractionDigits(int nanos) {
        if (nanos == 0) {
            return 0;
        }
        return nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
    }

    private static int pow10(int n) {
        return n == 0 ? 1 : n == 3 ? 1_000 : 1_000_000;
    }

    private static void digits(byte[] text, int at, int value, int count) {
        for (int i = at + count - 1; i >= at; i--) {
            text[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}

package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcStatTest {

    @Test
    void fieldsAreCountedAfterTheLastParenthesisOfTheCommandName() {
        String line = "4242 (my (weird) app) S 4200 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 "
                + "10485760 2560 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

        assertThat(ProcStat.parse(line)).contains(new ProcStat(4242, 4200, 4242, 'S', 987654, 2560, 3));
    }

    @Test
    void zombieIsNotAlive() {
        String line = "7 (sleep) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0 0";

        assertThat(ProcStat.parse(line)).hasValueSatisfying(stat -> assertThat(stat.alive()).isFalse());
    }

    @Test
    void garbageIsIgnored() {
        assertThat(ProcStat.parse("")).isEmpty();
        assertThat(ProcStat.parse("12 (cut short) S 1 2")).isEmpty();
    }

    @Test
    void ownProcessIsFoundWithItsStartTime() {
        long self = ProcessHandle.current().pid();

        assertThat(ProcTable.stat(self)).hasValueSatisfying(stat -> {
            assertThat(stat.pid()).isEqualTo(self);
            assertThat(stat.startTime()).isPositive();
            assertThat(stat.rssPages()).isPositive();
        });
    }
}

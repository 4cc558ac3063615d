package io.drover.rep.cell;

import io.drover.model.cell.Resources;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** What this machine offers when the settings do not say: total memory, free disk, 256 containers; its host name. */
public final class Machine {

    static final int DEFAULT_CONTAINERS = 256;

    private Machine() {
    }

    public static Resources resources() {
        long memoryBytes = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize()
                : Runtime.getRuntime().maxMemory();
        long diskBytes = new File(".").getUsableSpace();
        return new Resources(toMb(memoryBytes), toMb(diskBytes), DEFAULT_CONTAINERS);
    }

    public static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "cell";
        }
    }

    private static int toMb(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE, bytes / (1024 * 1024));
    }
}

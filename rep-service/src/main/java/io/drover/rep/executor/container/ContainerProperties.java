package io.drover.rep.executor.container;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the container executor ({@code drover.rep.container.*}, with {@code drover.rep.executor=container}).
 *
 * @param runtime {@code auto} (crun where installed, else runc) or the path of an OCI runtime
 * @param stateDir the runtime's state ({@code --root}); containers are found there again after a rep restart
 * @param bundleDir the instances' bundles ({@code config.json} and the root filesystem's mount point), one
 *     directory per cell and instance
 * @param rootfsDir where {@code preloaded:<name>} trees live ({@code <rootfs-dir>/<name>}, as {@code ./drover-local
 *     --rootfs} makes them) and where OCI image layouts are unpacked, once per manifest digest
 * @param user the uid:gid an instance's processes run as unless the run action names a user
 * @param init a static init for pid 1 ({@code auto}: Debian's {@code tini-static} where installed, {@code none}: the
 *     workload is pid 1 itself and ignores SIGTERM unless it handles it)
 * @param subnet the addresses of the instances' network namespaces, a /30 each (host side .1, instance .2)
 * @param diskDir where the disk images that hold an instance's {@code disk_mb} live (one sparse file each)
 */
@ConfigurationProperties("drover.rep.container")
public record ContainerProperties(@DefaultValue("auto") String runtime,
        @DefaultValue("/run/drover/runtime") Path stateDir, @DefaultValue("/run/drover/bundles") Path bundleDir,
        @DefaultValue("/var/lib/drover/rootfs") Path rootfsDir, @DefaultValue("2000:2000") String user,
        @DefaultValue("auto") String init, @DefaultValue("10.254.0.0/16") String subnet,
        @DefaultValue("/var/lib/drover/disks") Path diskDir) {

    private static final Pattern USER = Pattern.compile("(\\d+)(?::(\\d+))?");

    public ContainerProperties {
        uid(user);
        Subnet.parse(subnet);
    }

    /** The default user's uid. */
    int uid() {
        return uid(user);
    }

    /** The default user's gid (its uid when not given). */
    int gid() {
        Matcher m = USER.matcher(user);
        m.matches();
        return m.group(2) == null ? uid() : Integer.parseInt(m.group(2));
    }

    private static int uid(String user) {
        Matcher m = USER.matcher(user == null ? "" : user);
        if (!m.matches()) {
            throw new IllegalArgumentException("drover.rep.container.user must be uid or uid:gid: " + user);
        }
        return Integer.parseInt(m.group(1));
    }
}

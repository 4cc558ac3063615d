package io.drover.model.lrp;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What a user wants: how many instances of which process, with which resources, where. An update changes only
 * {@code instances}, {@code routes} and {@code annotation} (as in Diego; written without the entity, see
 * {@link DesiredLrpSnapshot#updatedBy}); what runs changes by a deployment, which gives
 * the definition a new {@code definitionVersion} (SPEC 14). Optimistically locked by {@code version}.
 */
@Entity
@Table(name = "desired_lrps")
public class DesiredLrp {

    @Id
    private String processGuid;
    private String domain;
    private int instances;
    private String rootfs;

    @Convert(converter = JsonColumns.ActionConverter.class)
    private Action action;

    @Convert(converter = JsonColumns.RunActionConverter.class)
    private RunAction monitor;

    @Convert(converter = JsonColumns.CheckDefinitionConverter.class)
    private CheckDefinition checks;

    @Convert(converter = JsonColumns.EnvConverter.class)
    private List<EnvVar> env;

    @Convert(converter = JsonColumns.IntListConverter.class)
    private List<Integer> ports;

    private int memoryMb;
    private int diskMb;
    private int maxPids;
    private int cpuWeight;

    @Convert(converter = JsonColumns.StringListConverter.class)
    private List<String> placementTags;

    private String routes;
    private String annotation;

    @Column(name = "start_timeout_s")
    private int startTimeoutS;

    private String logGuid;
    private String metricsGuid;
    private UUID epoch;
    private int definitionVersion = 1;

    @Version
    private long version;

    private Instant createdAt;
    private Instant updatedAt;

    protected DesiredLrp() {
    }

    public static DesiredLrp create(DesiredLrpDefinition d, UUID epoch, Instant now) {
        DesiredLrp lrp = new DesiredLrp();
        lrp.processGuid = d.processGuid();
        lrp.domain = d.domain();
        lrp.instances = d.instances();
        lrp.rootfs = d.rootfs();
        lrp.action = d.action();
        lrp.monitor = d.monitor();
        lrp.checks = d.checkDefinition();
        lrp.env = d.env();
        lrp.ports = d.ports();
        lrp.memoryMb = d.memoryMb();
        lrp.diskMb = d.diskMb();
        lrp.maxPids = d.maxPids();
        lrp.cpuWeight = d.cpuWeight();
        lrp.placementTags = d.placementTags();
        lrp.routes = d.routes();
        lrp.annotation = d.annotation();
        lrp.startTimeoutS = d.startTimeout();
        lrp.logGuid = d.logGuid();
        lrp.metricsGuid = d.metricsGuid();
        lrp.epoch = epoch;
        lrp.createdAt = now;
        lrp.updatedAt = now;
        return lrp;
    }

    /**
     * A deployment makes {@code deployable} the definition under {@code version} (SPEC 14): new instances run it, and
     * the deployer replaces the others. Returns false when this is the current version already.
     */
    boolean redefine(Deployable deployable, int version, Instant now) {
        if (version == definitionVersion) {
            return false;
        }
        action = deployable.action();
        monitor = deployable.monitor();
        checks = deployable.checkDefinition();
        startTimeoutS = deployable.startTimeout();
        env = deployable.env();
        ports = deployable.ports();
        memoryMb = deployable.memoryMb();
        diskMb = deployable.diskMb();
        maxPids = deployable.maxPids();
        cpuWeight = deployable.cpuWeight();
        placementTags = deployable.placementTags();
        definitionVersion = version;
        updatedAt = now;
        return true;
    }

    /** The version of the current definition: 1 when desired, then the target of the latest deployment. */
    public int definitionVersion() {
        return definitionVersion;
    }

    public DesiredLrpDefinition definition() {
        return new DesiredLrpDefinition(processGuid, domain, rootfs, instances, action, monitor, checks, startTimeoutS,
                env, ports, memoryMb, diskMb, maxPids, cpuWeight, placementTags, routes, annotation, logGuid,
                metricsGuid);
    }

    public DesiredLrpSnapshot snapshot() {
        return new DesiredLrpSnapshot(definition(), modificationTag(), createdAt, updatedAt, definitionVersion);
    }

    public String processGuid() {
        return processGuid;
    }

    public String domain() {
        return domain;
    }

    public int instances() {
        return instances;
    }

    public String rootfs() {
        return rootfs;
    }

    public int memoryMb() {
        return memoryMb;
    }

    public int diskMb() {
        return diskMb;
    }

    public List<String> placementTags() {
        return placementTags == null ? List.of() : placementTags;
    }

    public UUID epoch() {
        return epoch;
    }

    public long version() {
        return version;
    }

    public ModificationTag modificationTag() {
        return new ModificationTag(epoch, version);
    }
}

package io.drover.model.messaging;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Partition counts of Drover's topics ({@code drover.kafka.*}); topics are created at startup with these.
 * {@code cellPartitions} applies to both per-cell topics: a rep reads only the partition its cell id hashes to.
 */
@ConfigurationProperties("drover.kafka")
public record KafkaTopicsProperties(@DefaultValue("8") int startRequestPartitions,
        @DefaultValue("32") int cellPartitions, @DefaultValue("8") int lifecyclePartitions,
        @DefaultValue("1") short replicationFactor) {
}

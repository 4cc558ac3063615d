package io.drover.converger.deploy;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The deployer's settings ({@code drover.deployer.*}).
 *
 * @param interval how often the leader steps every active deployment: the pace of a rollout is at most one surge per
 *     LRP per interval once the previous one proved healthy
 * @param orphanTwinsPerTick at most this many twins of finished or cancelled deployments removed per tick
 */
@ConfigurationProperties("drover.deployer")
public record DeployerProperties(@DefaultValue("1s") Duration interval, @DefaultValue("500") int orphanTwinsPerTick) {
}

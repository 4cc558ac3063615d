package io.drover.receptor.web;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.ShallowEtagHeaderFilter;

/**
 * ETags for the small reads that are computed whole anyway ({@code /v1/cells}: a cell's presence changes with every
 * heartbeat; {@code /v1/domains}): a weak tag hashed from the body, and 304 when {@code If-None-Match} names it. It
 * saves the transfer, not the work; the LRP reads derive their tags from versions before reading (see
 * {@link KeysetListing}).
 */
@Configuration(proxyBeanMethods = false)
class SmallReadTags {

    @Bean
    FilterRegistrationBean<ShallowEtagHeaderFilter> smallReadEtags() {
        ShallowEtagHeaderFilter filter = new ShallowEtagHeaderFilter();
        filter.setWriteWeakETag(true);
        FilterRegistrationBean<ShallowEtagHeaderFilter> registration = new FilterRegistrationBean<>(filter);
        registration.addUrlPatterns("/v1/cells", "/v1/domains");
        return registration;
    }
}

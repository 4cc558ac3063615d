package io.drover.model.config;

import java.io.IOException;
import java.util.List;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.core.io.support.PropertySourceFactory;

/**
 * Loads a service's own defaults from {@code <service>.yml} via {@code @PropertySource}. Services keep their defaults
 * under their own file name rather than {@code application.yml} because the local cluster runs every service in one
 * JVM, where only one {@code application.yml} could be found on the classpath.
 */
public class ServiceDefaults implements PropertySourceFactory {

    @Override
    public PropertySource<?> createPropertySource(String name, EncodedResource resource) throws IOException {
        String sourceName = name != null ? name : resource.getResource().getFilename();
        List<PropertySource<?>> documents = new YamlPropertySourceLoader().load(sourceName, resource.getResource());
        CompositePropertySource composite = new CompositePropertySource(sourceName);
        documents.forEach(composite::addPropertySource);
        return composite;
    }
}

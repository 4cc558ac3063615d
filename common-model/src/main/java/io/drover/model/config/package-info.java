/** Spring Boot auto-configuration that gives every service the model: lifecycles, read model, outbox, topics, presence. */
package io.drover.model.config;

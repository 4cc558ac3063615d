/** Spring Boot auto-configuration that gives every service the model: JPA, lifecycle, outbox, topics, presence. */
package io.drover.model.config;

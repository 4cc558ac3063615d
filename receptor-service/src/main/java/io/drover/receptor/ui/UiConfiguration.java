package io.drover.receptor.ui;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The dashboard's script and style sheet. The receptor maps no static resources by default (an API has none), so the
 * dashboard's own folder is mapped alone, behind the same authentication as every other path.
 */
@Configuration
class UiConfiguration implements WebMvcConfigurer {

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler("/ui/static/**").addResourceLocations("classpath:/ui/static/");
    }
}

package io.drover.receptor.web.security;

import io.drover.receptor.web.ApiError;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import tools.jackson.databind.json.JsonMapper;

/** 401 Unauthorized (with a Basic challenge) and 403 Forbidden in the API's error shape. */
final class JsonSecurityErrors {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private JsonSecurityErrors() {
    }

    static AuthenticationEntryPoint unauthorized() {
        return (request, response, e) -> {
            response.setHeader("WWW-Authenticate", "Basic realm=\"drover\"");
            write(response, HttpServletResponse.SC_UNAUTHORIZED,
                    new ApiError(ApiError.UNAUTHORIZED, "authentication required (HTTP Basic)"));
        };
    }

    static AccessDeniedHandler forbidden() {
        return (request, response, e) -> write(response, HttpServletResponse.SC_FORBIDDEN,
                new ApiError(ApiError.FORBIDDEN, "access denied"));
    }

    static void write(HttpServletResponse response, int status, ApiError error) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        MAPPER.writeValue(response.getOutputStream(), error);
    }
}

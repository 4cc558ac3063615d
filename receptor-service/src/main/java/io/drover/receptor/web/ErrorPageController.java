package io.drover.receptor.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors raised outside Spring MVC (by the container or a filter) are forwarded to {@code /error}; this renders them in
 * the API's shape instead of Boot's default body.
 */
@RestController
class ErrorPageController implements ErrorController {

    @RequestMapping("/error")
    ResponseEntity<ApiError> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer c && HttpStatus.resolve(c) != null ? HttpStatus.valueOf(c)
                : HttpStatus.BAD_REQUEST;
        String name = switch (status) {
            case UNAUTHORIZED -> ApiError.UNAUTHORIZED;
            case FORBIDDEN -> ApiError.FORBIDDEN;
            default -> status.is5xxServerError() ? ApiError.UNKNOWN_ERROR : ApiError.INVALID_REQUEST;
        };
        return ApiExceptionHandler.error(status, new ApiError(name, status.getReasonPhrase()));
    }
}

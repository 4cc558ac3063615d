package io.drover.receptor.ui;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.server.ResponseStatusException;

/** A page's 4xx (an unknown LRP, a bad filter) as a page a person can read and leave, not the API's JSON. */
@ControllerAdvice(basePackageClasses = UiErrors.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class UiErrors {

    @ExceptionHandler(ResponseStatusException.class)
    String problem(ResponseStatusException e, HttpServletResponse response, Model model) {
        response.setStatus(e.getStatusCode().value());
        model.addAttribute("status", e.getStatusCode().value());
        model.addAttribute("reason", e.getReason());
        return "ui/problem";
    }
}

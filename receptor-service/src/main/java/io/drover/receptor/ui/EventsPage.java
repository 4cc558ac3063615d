package io.drover.receptor.ui;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * {@code /ui/events}: the live feed. The page is a frame; its script fills it from {@code GET /v1/events} (the same
 * stream API clients read), keeping the latest few hundred lines and filtering them in the browser.
 */
@Controller
class EventsPage {

    @GetMapping("/ui/events")
    String events(Model model) {
        model.addAttribute("page", "events");
        return "ui/events";
    }
}

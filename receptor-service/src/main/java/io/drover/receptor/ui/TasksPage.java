package io.drover.receptor.ui;

import io.drover.model.read.Tallies;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** {@code /ui/tasks}: tasks by state, then {@link #PER_PAGE} of them at a time in task_guid order (keyset pages). */
@Controller
class TasksPage {

    static final int PER_PAGE = 50;

    private final TaskReads tasks;
    private final Tallies tallies;

    TasksPage(TaskReads tasks, Tallies tallies) {
        this.tasks = tasks;
        this.tallies = tallies;
    }

    @GetMapping("/ui/tasks")
    String tasks(@RequestParam(required = false) String after, @RequestParam(required = false) String fragment,
            Model model) {
        List<TaskSnapshot> page = tasks.page(UiParams.filter("after", after), PER_PAGE + 1);
        boolean more = page.size() > PER_PAGE;
        page = more ? page.subList(0, PER_PAGE) : page;
        model.addAttribute("page", "tasks");
        model.addAttribute("tasks", page);
        model.addAttribute("byState", tallies.tasksByState());
        model.addAttribute("after", after);
        model.addAttribute("next", more ? page.get(page.size() - 1).taskGuid() : null);
        return Fragments.view("ui/tasks", fragment);
    }
}

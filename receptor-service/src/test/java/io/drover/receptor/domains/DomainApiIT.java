package io.drover.receptor.domains;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.guid;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.receptor.ReceptorTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

@ReceptorTest
class DomainApiIT {

    @Autowired
    MockMvc mvc;

    @Test
    void aDomainWithoutMaxAgeStaysFreshAndOneWithMaxAgeZeroIsNot() throws Exception {
        String forever = guid("forever");
        String expired = guid("expired");
        String fresh = guid("fresh");
        mvc.perform(authed(put("/v1/domains/" + forever))).andExpect(status().isNoContent());
        mvc.perform(authed(put("/v1/domains/" + expired)).header("Cache-Control", "max-age=0"))
                .andExpect(status().isNoContent());
        mvc.perform(authed(put("/v1/domains/" + fresh)).header("Cache-Control", "max-age=3600"))
                .andExpect(status().isNoContent());
        mvc.perform(authed(get("/v1/domains")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasItem(forever)))
                .andExpect(jsonPath("$", hasItem(fresh)))
                .andExpect(jsonPath("$", not(hasItem(expired))));
    }

    @Test
    void aCacheControlWithoutAValidMaxAgeIsAnInvalidRequestAndABadNameAnInvalidDomain() throws Exception {
        for (String header : new String[] { "max-age=soon", "no-cache" }) {
            mvc.perform(authed(put("/v1/domains/d-bad-ttl")).header("Cache-Control", header))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.name").value("InvalidRequest"));
        }
        mvc.perform(authed(get("/v1/domains"))).andExpect(jsonPath("$", not(hasItem("d-bad-ttl"))));
        mvc.perform(authed(put("/v1/domains/" + "d".repeat(257))))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.name").value("InvalidDomain"));
    }
}

package io.drover.receptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EntityTagsTest {

    @ParameterizedTest(name = "If-None-Match [{0}] vs {1}: {2}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "\"a:1\"            | \"a:1\"    | true",
            "W/\"a:1\"          | \"a:1\"    | true",
            "\"a:1\"            | W/\"a:1\"  | true",
            "W/\"l-3-9\"        | W/\"l-3-9\" | true",
            "\"b\", \"a:1\"     | \"a:1\"    | true",
            "\"b\",W/\"a:1\"    | \"a:1\"    | true",
            "*                  | \"a:1\"    | true",
            "\"a:2\"            | \"a:1\"    | false",
            "a:1                | \"a:1\"    | false",
            "\"a:1              | \"a:1\"    | false",
            "NULL               | \"a:1\"    | false",
            "''                 | \"a:1\"    | false",
            ",                  | \"a:1\"    | false" })
    void weakComparisonOfEveryListedTag(String ifNoneMatch, String current, boolean matches) {
        assertThat(EntityTags.matches(ifNoneMatch, current)).isEqualTo(matches);
    }
}

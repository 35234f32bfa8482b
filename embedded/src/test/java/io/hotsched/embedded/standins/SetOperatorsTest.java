package io.hotsched.embedded.standins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The set-based selector operators, with a present, an absent (empty cell) and a missing list of values. */
class SetOperatorsTest {

    @ParameterizedTest
    @CsvSource({
        "In, a, a|b, true",
        "In, c, a|b, false",
        "In, , a|b, false",
        "NotIn, c, a|b, true",
        "NotIn, a, a|b, false",
        "NotIn, , a|b, true",
        "Exists, a, , true",
        "Exists, , , false",
        "DoesNotExist, , , true",
        "DoesNotExist, a, , false",
        "In, a, , false",
        "Gt, 5, 1, false",
        "Equals, a, a, false"
    })
    void holds(String operator, String value, String values, boolean expected) {
        List<String> set = values == null ? null : Arrays.asList(values.split("\\|"));
        assertEquals(expected, SetOperators.holds(operator, value, set));
    }
}

package io.hotsched.plugins.deviceshare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The canonical forms Go's resource.Quantity prints, for the amounts DeviceShare writes. */
class GoQuantityTest {

    @ParameterizedTest
    @CsvSource({
        "16Gi, true, 16Gi",
        "83201216Ki, true, 83201216Ki",
        "8589934592, true, 8Gi",
        "1536, true, 1536",
        "100, true, 100",
        "0, true, 0",
        "100, false, 100",
        "1000, false, 1k",
        "1500, false, 1500",
        "0.5, false, 500m",
        "2M, false, 2M",
        "12884901888, true, 12Gi",
    })
    void canonical(String amount, boolean bytes, String printed) {
        assertEquals(printed, GoQuantity.format(new Quantity(amount).getNumericalAmount(), bytes));
    }
}

package io.hotsched.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TableTest {

    @Test
    void columnsAlignAndNullsAreBlank() {
        String t = new Table("NAME", "STATE")
                .row("NodeResourcesFit", "active")
                .row("A", null)
                .toString();
        assertEquals("NAME              STATE\nNodeResourcesFit  active\nA\n", t);
    }
}

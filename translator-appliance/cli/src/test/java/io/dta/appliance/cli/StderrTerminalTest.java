package io.dta.appliance.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StderrTerminalTest
{
    @Test
    void shouldTellTerminalDevicesFromFilesAndPipes()
    {
        assertTrue(StderrTerminal.isTerminalDevice("/dev/pts/3"));
        assertTrue(StderrTerminal.isTerminalDevice("/dev/tty1"));
        assertTrue(StderrTerminal.isTerminalDevice("/dev/console"));
        assertFalse(StderrTerminal.isTerminalDevice("pipe:[123456]"));
        assertFalse(StderrTerminal.isTerminalDevice("/tmp/gen.log"));
        assertFalse(StderrTerminal.isTerminalDevice("/dev/null"));
        assertFalse(StderrTerminal.isTerminalDevice("socket:[42]"));
    }

    @Test
    void shouldSeeThatTheTestsStandardErrorIsNoTerminal()
    {
        // Surefire's forked JVM writes standard error to a pipe or file, never to a terminal.
        assertFalse(StderrTerminal.isTerminal());
    }
}

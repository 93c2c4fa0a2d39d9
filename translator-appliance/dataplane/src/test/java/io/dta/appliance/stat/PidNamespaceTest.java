package io.dta.appliance.stat;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PidNamespaceTest
{
    @Test
    void shouldTakeTheLow32BitsOfAPidNamespaceInodeAndNothingElse()
    {
        assertEquals((int)4026531836L, PidNamespace.parse("pid:[4026531836]"));
        assertEquals((int)0x1_0000_0005L, PidNamespace.parse("pid:[4294967301]"));
        assertEquals(PidNamespace.UNKNOWN, PidNamespace.parse("net:[4026531836]"));
        assertEquals(PidNamespace.UNKNOWN, PidNamespace.parse("pid:[]"));
        assertEquals(PidNamespace.UNKNOWN, PidNamespace.parse("pid:[12x]"));
        assertEquals(PidNamespace.UNKNOWN, PidNamespace.parse("pid:[12]x"));
        assertEquals(PidNamespace.UNKNOWN, PidNamespace.read(Path.of("/nonexistent/ns/pid")));
    }
}

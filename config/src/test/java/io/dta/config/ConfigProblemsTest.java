package io.dta.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The problem list and the text helpers on their own: which key paths count as having a problem (the path itself
 * and what lies under it, never a longer key that merely starts the same), repetitions, and the key suggestions and
 * integer forms the messages rely on.
 */
class ConfigProblemsTest
{
    @Test
    void shouldTellAProblemAtAPathOrUnderItButNotAtAKeyThatStartsTheSame()
    {
        final ConfigProblems problems = new ConfigProblems();
        assertTrue(problems.isEmpty());
        problems.add("collectors[0].keyWrite.length", "too short");
        problems.add("acks.window", "out of range");

        assertTrue(problems.has("collectors[0].keyWrite.length"));
        assertTrue(problems.has("collectors[0].keyWrite"));
        assertTrue(problems.has("collectors[0]"));
        assertTrue(problems.has("collectors"));
        assertTrue(problems.has("acks"));
        assertFalse(problems.has("collectors[0].keyWrite.len"));
        assertFalse(problems.has("acks.win"));
        assertFalse(problems.has("collectors[1]"));
        assertEquals(List.of("collectors[0].keyWrite.length: too short", "acks.window: out of range"),
            problems.list());
    }

    @Test
    void shouldReportARepetitionAtItsSecondPathNamingTheFirst()
    {
        final ConfigProblems problems = new ConfigProblems();
        final Map<Integer, String> seen = new HashMap<>();
        problems.unique(seen, 7, "a[0].id", "7", "");
        problems.unique(seen, 8, "a[1].id", "8", "");
        assertTrue(problems.isEmpty());
        problems.unique(seen, 7, "a[2].id", "7", " on the same collector");
        assertEquals(List.of("a[2].id: 7 already used by a[0].id on the same collector"), problems.list());
    }

    @Test
    void shouldSuggestTheNearestKnownKeyWithinTheAllowedDistance()
    {
        final Set<String> known = Set.of("udpPort", "baseHeader", "verifyChecksums");
        assertEquals("udpPort", ConfigText.suggest("udp_port", known));
        assertEquals("baseHeader", ConfigText.suggest("basehedr", known));
        assertNull(ConfigText.suggest("completelyDifferent", known));
        assertEquals(3, ConfigText.editDistance("kitten", "sitting"));
    }

    @Test
    void shouldParseDecimalAndHexIntegersAndRefuseOtherForms()
    {
        assertEquals(BigInteger.valueOf(4791), ConfigText.parseInteger("4791"));
        assertEquals(BigInteger.valueOf(-3), ConfigText.parseInteger("-3"));
        assertEquals(new BigInteger("ffffffffffffffff", 16), ConfigText.parseInteger("0xFFFFFFFFFFFFFFFF"));
        assertNull(ConfigText.parseInteger("010"));
        assertNull(ConfigText.parseInteger("0x"));
        assertNull(ConfigText.parseInteger("-"));
        assertNull(ConfigText.parseInteger("12a"));
        assertEquals("0x00c000", ConfigText.hex(0xC000, 6));
        assertEquals("0x1000", ConfigText.hex(0x1000, 0));
    }
}

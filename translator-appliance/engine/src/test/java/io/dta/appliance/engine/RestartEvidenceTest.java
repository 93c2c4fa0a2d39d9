package io.dta.appliance.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RestartEvidenceTest
{
    @Test
    void shouldNotSuspectAPsnInsideTheWindow()
    {
        final RestartEvidence e = new RestartEvidence();
        assertFalse(e.suspect(0x200, 0x200, 0x210), "at the last acknowledged PSN");
        assertFalse(e.suspect(0x211, 0x200, 0x210), "one past the last sent");
        assertFalse(e.suspected());
    }

    @Test
    void shouldConfirmABehindSuspicionOnlyAfterAnswersToTestsInARow()
    {
        final RestartEvidence e = new RestartEvidence();
        assertTrue(e.suspect(0x10, 0x200, 0x210));
        assertEquals(0x10, e.testPsn(0x200), "the test goes on the PSN the responder would expect");
        assertFalse(e.agrees(0x10), "no test out yet: a stale copy of the suspicion counts nothing");
        for (int i = 0; i < RestartEvidence.REQUIRED_ANSWERS; i++)
        {
            assertFalse(e.confirmed());
            e.testSent();
            assertFalse(e.agrees(0x11), "a responder behind answers with the test's PSN");
            assertTrue(e.agrees(0x10));
            assertFalse(e.agrees(0x10), "one answer per test");
        }
        assertTrue(e.confirmed());
        assertEquals(0x11, e.continueAt(), "it executed the first test");
    }

    @Test
    void shouldConfirmAnAheadSuspicionWithProbesAsTests()
    {
        final RestartEvidence e = new RestartEvidence();
        assertTrue(e.suspect(0x500, 0x100, 0x102));
        assertEquals(0x100, e.testPsn(0x100), "a probe on the last acknowledged PSN");
        for (int i = 0; i < RestartEvidence.REQUIRED_ANSWERS; i++)
        {
            e.testSent();
            assertTrue(e.agrees(0x4FF));
        }
        assertTrue(e.confirmed());
        assertEquals(0x500, e.continueAt());
    }

    @Test
    void shouldStartOverOnAnotherPsnOrAnAnswerInsideTheWindow()
    {
        final RestartEvidence e = new RestartEvidence();
        e.suspect(0x10, 0x200, 0x210);
        e.testSent();
        assertTrue(e.agrees(0x10));
        e.clear();
        assertFalse(e.suspected());
        e.suspect(0x10, 0x200, 0x210);
        e.testSent();
        assertTrue(e.agrees(0x10));
        assertTrue(e.suspect(0x20, 0x200, 0x210), "another PSN: a new suspicion");
        e.testSent();
        assertFalse(e.agrees(0x10));
        for (int i = 0; i < RestartEvidence.REQUIRED_ANSWERS - 1; i++)
        {
            e.testSent();
            assertTrue(e.agrees(0x20));
        }
        assertFalse(e.confirmed(), "the answers to the earlier PSN do not count");
    }
}

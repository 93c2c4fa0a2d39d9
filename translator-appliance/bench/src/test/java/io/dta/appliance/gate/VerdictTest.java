package io.dta.appliance.gate;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class VerdictTest
{
    @Test
    void shouldPassARatioWithinTheAllowanceWhateverItsInterval()
    {
        assertEquals(Verdict.NO_REGRESSION, Verdict.of(new RatioInterval(1.0, 0.98, 1.02), 5));
        assertEquals(Verdict.NO_REGRESSION, Verdict.of(new RatioInterval(0.96, 0.80, 1.10), 5));
        assertEquals(Verdict.NO_REGRESSION, Verdict.of(new RatioInterval(0.95, 0.94, 0.96), 5));
        assertEquals(Verdict.NO_REGRESSION, Verdict.of(new RatioInterval(1.3, 1.2, 1.4), 5));
    }

    @Test
    void shouldFailOnlyWhenTheWholeIntervalIsBeyondTheAllowance()
    {
        assertEquals(Verdict.REGRESSION, Verdict.of(new RatioInterval(0.75, 0.70, 0.80), 5));
        assertEquals(Verdict.REGRESSION, Verdict.of(new RatioInterval(0.85, 0.84, 0.899), 10));
        assertEquals(Verdict.INCONCLUSIVE, Verdict.of(new RatioInterval(0.90, 0.80, 0.97), 5));
        assertEquals(Verdict.INCONCLUSIVE, Verdict.of(new RatioInterval(0.85, 0.84, 0.90), 10));
        assertEquals(Verdict.INCONCLUSIVE, Verdict.of(new RatioInterval(Double.NaN, Double.NaN, Double.NaN), 5));
    }

    @Test
    void shouldExitAsTheHelpSays()
    {
        assertEquals(0, Verdict.NO_REGRESSION.exitStatus());
        assertEquals(3, Verdict.REGRESSION.exitStatus());
        assertEquals(4, Verdict.INCONCLUSIVE.exitStatus());
        assertEquals(0.95, Verdict.floor(5), 1e-12);
    }
}

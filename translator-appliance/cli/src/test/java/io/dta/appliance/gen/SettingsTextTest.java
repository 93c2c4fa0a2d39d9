package io.dta.appliance.gen;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The text forms of the generator's options: parsed as written, refused naming the option.
 */
class SettingsTextTest
{
    @Test
    void shouldParseAMixByPrimitive()
    {
        final int[] weights = SettingsText.mixWeights(" keywrite=3, sketch = 2 ,,");

        assertEquals(3, weights[Primitive.KEY_WRITE.ordinal()]);
        assertEquals(2, weights[Primitive.SKETCH.ordinal()]);
        assertEquals(0, weights[Primitive.APPEND.ordinal()]);
    }

    @Test
    void shouldRefuseAPrimitiveNamedTwice()
    {
        final GeneratorSettingsException ex = assertThrows(GeneratorSettingsException.class,
            () -> SettingsText.mixWeights("append=1,append=0"));

        assertEquals("--mix: append is named twice", ex.getMessage());
    }

    @Test
    void shouldParseNumbersInDecimalOrHexSkippingBlanks()
    {
        assertArrayEquals(new long[] { 7, 255, 9 }, SettingsText.numbers("--lists", "7, 0xFF,,9"));
        assertEquals("--lists: 'x1' is not a number",
            assertThrows(GeneratorSettingsException.class, () -> SettingsText.numbers("--lists", "x1")).getMessage());
    }

    @Test
    void shouldParseRedundancyAsNOrARange()
    {
        assertArrayEquals(new int[] { 2, 2 }, SettingsText.redundancy("2"));
        assertArrayEquals(new int[] { 1, 3 }, SettingsText.redundancy(" 1 - 3 "));
        assertEquals("--redundancy: must be N or MIN-MAX, not 'a-b'",
            assertThrows(GeneratorSettingsException.class, () -> SettingsText.redundancy("a-b")).getMessage());
    }

    @Test
    void shouldRefuseAFractionOutOfRange()
    {
        assertEquals(1.0, SettingsText.fraction("--bad", 1.0, true));
        assertThrows(GeneratorSettingsException.class, () -> SettingsText.fraction("--postcard-loss", 1.0, false));
        assertThrows(GeneratorSettingsException.class, () -> SettingsText.fraction("--bad", Double.NaN, true));
    }
}

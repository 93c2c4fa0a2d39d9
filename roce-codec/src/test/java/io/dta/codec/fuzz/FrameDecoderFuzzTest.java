package io.dta.codec.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MalformedReason;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of {@link FrameDecoder#decode}: any bytes, under each base-header form, decode without an
 * exception to one kind with a reason exactly when malformed, the offsets it reports inside the frame, and the same
 * result wherever the frame lies in its buffer and whatever follows it. A normal build replays the corpus under
 * {@code src/test/resources/io/dta/codec/fuzz/FrameDecoderFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes
 * (docs/fuzzing.md).
 */
class FrameDecoderFuzzTest
{
    private static final int SHIFT = 13;
    private static final DtaBaseHeaderForm[] FORMS = DtaBaseHeaderForm.values();

    private final FrameDecoder[] decoders = new FrameDecoder[FORMS.length];
    private final FrameDecoder shifted = new FrameDecoder();

    FrameDecoderFuzzTest()
    {
        for (int i = 0; i < FORMS.length; i++)
        {
            decoders[i] = new FrameDecoder().baseHeaderForm(FORMS[i]).verifyUdpChecksum(1 == i);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void decode(final byte[] frame)
    {
        final UnsafeBuffer exact = new UnsafeBuffer(frame);
        // The same bytes further into a buffer, followed by junk that must not change the outcome.
        final byte[] padded = new byte[frame.length + 2 * SHIFT];
        Arrays.fill(padded, (byte)0xA5);
        System.arraycopy(frame, 0, padded, SHIFT, frame.length);
        final UnsafeBuffer inside = new UnsafeBuffer(padded);
        for (int i = 0; i < decoders.length; i++)
        {
            final FrameDecoder decoder = decoders[i];
            final FrameKind kind = decoder.decode(exact, 0, frame.length);
            assertEquals(kind, decoder.kind());
            final MalformedReason reason = decoder.malformedReason();
            assertEquals(FrameKind.MALFORMED == kind, MalformedReason.NONE != reason, reason.toString());
            assertNotEquals(MalformedReason.INTERNAL_ERROR, reason);
            checkOffsets(decoder, kind, 0, frame.length);
            final boolean ipValid = decoder.ipChecksumValid();
            final boolean udpValid = decoder.udpChecksumValid();
            final boolean icrcValid = FrameKind.ROCE == kind && decoder.icrcValid();

            shifted.baseHeaderForm(FORMS[i]).verifyUdpChecksum(1 == i);
            assertEquals(kind, shifted.decode(inside, SHIFT, frame.length), "the frame's place in its buffer");
            assertEquals(reason, shifted.malformedReason());
            assertEquals(ipValid, shifted.ipChecksumValid());
            assertEquals(udpValid, shifted.udpChecksumValid());
            assertEquals(icrcValid, FrameKind.ROCE == kind && shifted.icrcValid());
            checkOffsets(shifted, kind, SHIFT, frame.length);
        }
    }

    private static void checkOffsets(
        final FrameDecoder decoder, final FrameKind kind, final int start, final int length)
    {
        final int end = start + length;
        if (FrameKind.DTA == kind)
        {
            assertTrue(start < decoder.ipOffset() && decoder.ipOffset() < decoder.udpOffset(), "IP before UDP");
            assertTrue(decoder.udpOffset() < decoder.dtaOffset() && decoder.dtaOffset() <= end, "DTA inside");
            assertTrue(decoder.udpOffset() + decoder.udpLength() <= end, "UDP datagram inside the frame");
        }
        else if (FrameKind.ROCE == kind)
        {
            assertTrue(start < decoder.ipOffset() && decoder.ipOffset() < decoder.bthOffset(), "IP before BTH");
            assertTrue(decoder.payloadOffset() >= decoder.bthOffset(), "payload after the BTH");
            assertTrue(decoder.payloadOffset() + decoder.payloadLength() + decoder.padCount() <= decoder.icrcOffset(),
                "payload and pad before the ICRC");
            assertTrue(decoder.icrcOffset() + 4 <= end, "ICRC inside the frame");
        }
    }
}

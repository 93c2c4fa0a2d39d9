package io.dta.collector.responder;

import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: a configuration matching the RoCEv2 vectors, request frames as the translator builds them, and a
 * sink that keeps the responses.
 */
final class Requests
{
    static final long TRANSLATOR_MAC = 0x020000000001L;
    static final int TRANSLATOR_IP = 0x0A000001;
    static final long COLLECTOR_MAC = 0x020000000002L;
    static final int COLLECTOR_IP = 0x0A000002;
    static final int QPN = 0x112;
    static final int PEER_QPN = 0x77;
    static final long RKEY = 0xA1B2C3L;
    static final long BASE = 0x00007F1234560000L;
    static final int LENGTH = 4096;
    static final int MTU = 256;

    private Requests()
    {
    }

    static String yaml(final int startPsn)
    {
        return "translator:\n" +
            "  mac: \"02:00:00:00:00:01\"\n" +
            "  ip: 10.0.0.1\n" +
            "  dscp: 26\n" +
            "  ecn: 2\n" +
            "collectors:\n" +
            "  - name: vec\n" +
            "    mac: \"02:00:00:00:00:02\"\n" +
            "    ip: 10.0.0.2\n" +
            "    pathMtu: " + MTU + "\n" +
            "    keyWrite:\n" +
            "      localQpn: 0x77\n" +
            "      qpn: 0x112\n" +
            "      rkey: 0xa1b2c3\n" +
            "      address: 0x00007f1234560000\n" +
            "      length: " + LENGTH + "\n" +
            "      startPsn: " + startPsn + "\n";
    }

    static ApplianceConfig config(final int startPsn)
    {
        return ConfigLoader.load(yaml(startPsn));
    }

    /** A responder over plain heap memory for the one region. */
    static SoftResponder responder(final ApplianceConfig config, final UnsafeBuffer memory)
    {
        return new SoftResponder(config, (c, r) -> memory);
    }

    static RoceFrameEncoder encoder()
    {
        return new RoceFrameEncoder()
            .srcMac(TRANSLATOR_MAC).dstMac(COLLECTOR_MAC).srcIp(TRANSLATOR_IP).dstIp(COLLECTOR_IP)
            .tos(0x6A).srcPort(0xC123).destQp(QPN).pKey(0xFFFF).migReq(true);
    }

    static byte[] frame(final RoceFrameEncoder encoder)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[encoder.frameLength()]);
        encoder.encode(buffer, 0);
        return buffer.byteArray();
    }

    static byte[] writeOnly(final int psn, final long va, final byte[] payload, final boolean ackReq)
    {
        return frame(encoder().opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(psn).ackReq(ackReq).virtualAddress(va)
            .rKey(RKEY).dmaLength(-1).payload(new UnsafeBuffer(payload), 0, payload.length));
    }

    /** An 8-byte WRITE Only with AckReq to any QP of the collector (payload 01..08). */
    static byte[] writeOnlyTo(final int destQp, final int psn, final long va, final long rKey)
    {
        final byte[] payload = { 1, 2, 3, 4, 5, 6, 7, 8 };
        return frame(encoder().destQp(destQp).opcode(RoceOpcode.RC_RDMA_WRITE_ONLY).psn(psn & 0xFFFFFF).ackReq(true)
            .virtualAddress(va).rKey(rKey).dmaLength(-1).payload(new UnsafeBuffer(payload), 0, payload.length));
    }

    static byte[] write(
        final int opcode, final int psn, final long va, final long rKey, final long dmaLength, final byte[] payload,
        final boolean ackReq)
    {
        return frame(encoder().opcode(opcode).psn(psn).ackReq(ackReq).virtualAddress(va).rKey(rKey)
            .dmaLength(dmaLength).payload(new UnsafeBuffer(payload), 0, payload.length));
    }

    static byte[] fetchAdd(final int psn, final long va, final long add)
    {
        return frame(encoder().opcode(RoceOpcode.RC_FETCH_ADD).psn(psn).ackReq(true).virtualAddress(va).rKey(RKEY)
            .swapAddData(add).compareData(0).noPayload());
    }

    /** A decoded response. */
    record Response(int opcode, int psn, int syndrome, int msn, long original, int destQp, boolean icrcValid,
        byte[] bytes)
    {
        boolean isNak(final int code)
        {
            return opcode == RoceOpcode.RC_ACKNOWLEDGE && syndrome == (0x60 | code);
        }

        boolean isAck()
        {
            return opcode == RoceOpcode.RC_ACKNOWLEDGE && (syndrome & 0x60) == 0;
        }
    }

    /** Keeps every response, decoded. */
    static final class Sink implements ResponseSink
    {
        final List<Response> responses = new ArrayList<>();
        private final FrameDecoder decoder = new FrameDecoder();

        @Override
        public void onResponse(final org.agrona.DirectBuffer buffer, final int offset, final int length)
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            final UnsafeBuffer copy = new UnsafeBuffer(bytes);
            if (FrameKind.ROCE != decoder.decode(copy, 0, length))
            {
                throw new AssertionError("response does not decode: " + decoder.malformedReason());
            }
            final int opcode = decoder.roceOpcode();
            responses.add(new Response(opcode, decoder.bth().psn(), decoder.aeth().syndrome(), decoder.aeth().msn(),
                opcode == RoceOpcode.RC_ATOMIC_ACKNOWLEDGE ? decoder.atomicAckEth().originalValue() : 0,
                decoder.bth().destQp(), decoder.icrcValid(), bytes));
        }

        Response last()
        {
            return responses.get(responses.size() - 1);
        }
    }

    static void offer(final SoftResponder responder, final byte[] frame, final Sink sink)
    {
        responder.onFrame(new UnsafeBuffer(frame), 0, frame.length, 0, sink);
    }
}

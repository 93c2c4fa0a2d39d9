package io.dta.collector.responder;

import io.dta.codec.RoceOpcode;

/**
 * How the soft responder classifies RC request opcodes (rxe's opcode masks).
 */
final class RequestOpcodes
{
    private RequestOpcodes()
    {
    }

    /**
     * Is this RC opcode one a requester sends (as opposed to a response or a reserved code)?
     *
     * @param opcode RC opcode.
     * @return true for SEND, WRITE, READ request, atomics, FLUSH and ATOMIC WRITE.
     */
    static boolean isRequest(final int opcode)
    {
        return opcode <= RoceOpcode.RC_RDMA_READ_REQUEST || opcode == RoceOpcode.RC_COMPARE_SWAP ||
            opcode == RoceOpcode.RC_FETCH_ADD || opcode == RoceOpcode.RC_SEND_LAST_WITH_INVALIDATE ||
            opcode == RoceOpcode.RC_SEND_ONLY_WITH_INVALIDATE || opcode == RoceOpcode.RC_FLUSH ||
            opcode == RoceOpcode.RC_ATOMIC_WRITE;
    }

    /**
     * Requests that consume a receive WQE (rxe's RWR mask); with no receive queue they get an RNR NAK.
     */
    static boolean consumesReceiveWqe(final int opcode)
    {
        switch (opcode)
        {
            case RoceOpcode.RC_SEND_FIRST:
            case RoceOpcode.RC_SEND_ONLY:
            case RoceOpcode.RC_SEND_ONLY_WITH_IMMEDIATE:
            case RoceOpcode.RC_SEND_ONLY_WITH_INVALIDATE:
            case RoceOpcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE:
            case RoceOpcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE:
                return true;
            default:
                return false;
        }
    }

    /**
     * Operations this responder executes; other requests get NAK 0x61 (no READ access, SEND continuations
     * outside a SEND message).
     */
    static boolean isSupported(final int opcode)
    {
        switch (opcode)
        {
            case RoceOpcode.RC_RDMA_WRITE_FIRST:
            case RoceOpcode.RC_RDMA_WRITE_MIDDLE:
            case RoceOpcode.RC_RDMA_WRITE_LAST:
            case RoceOpcode.RC_RDMA_WRITE_ONLY:
            case RoceOpcode.RC_FETCH_ADD:
            case RoceOpcode.RC_COMPARE_SWAP:
                return true;
            default:
                return false;
        }
    }
}

package io.dta.codec;

/**
 * RoCEv2 / InfiniBand BTH opcodes and the header length that follows the BTH for each (the Linux rxe table).
 */
public final class RoceOpcode
{
    /** RC SEND First. */
    public static final int RC_SEND_FIRST = 0x00;
    /** RC SEND Middle. */
    public static final int RC_SEND_MIDDLE = 0x01;
    /** RC SEND Last. */
    public static final int RC_SEND_LAST = 0x02;
    /** RC SEND Last with Immediate. */
    public static final int RC_SEND_LAST_WITH_IMMEDIATE = 0x03;
    /** RC SEND Only. */
    public static final int RC_SEND_ONLY = 0x04;
    /** RC SEND Only with Immediate. */
    public static final int RC_SEND_ONLY_WITH_IMMEDIATE = 0x05;
    /** RC RDMA WRITE First. */
    public static final int RC_RDMA_WRITE_FIRST = 0x06;
    /** RC RDMA WRITE Middle. */
    public static final int RC_RDMA_WRITE_MIDDLE = 0x07;
    /** RC RDMA WRITE Last. */
    public static final int RC_RDMA_WRITE_LAST = 0x08;
    /** RC RDMA WRITE Last with Immediate. */
    public static final int RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09;
    /** RC RDMA WRITE Only. */
    public static final int RC_RDMA_WRITE_ONLY = 0x0A;
    /** RC RDMA WRITE Only with Immediate. */
    public static final int RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B;
    /** RC RDMA READ Request. */
    public static final int RC_RDMA_READ_REQUEST = 0x0C;
    /** RC RDMA READ Response First. */
    public static final int RC_RDMA_READ_RESPONSE_FIRST = 0x0D;
    /** RC RDMA READ Response Middle. */
    public static final int RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E;
    /** RC RDMA READ Response Last. */
    public static final int RC_RDMA_READ_RESPONSE_LAST = 0x0F;
    /** RC RDMA READ Response Only. */
    public static final int RC_RDMA_READ_RESPONSE_ONLY = 0x10;
    /** RC Acknowledge (ACK and NAK). */
    public static final int RC_ACKNOWLEDGE = 0x11;
    /** RC Atomic Acknowledge. */
    public static final int RC_ATOMIC_ACKNOWLEDGE = 0x12;
    /** RC Compare and Swap. */
    public static final int RC_COMPARE_SWAP = 0x13;
    /** RC Fetch and Add. */
    public static final int RC_FETCH_ADD = 0x14;
    /** RC SEND Last with Invalidate. */
    public static final int RC_SEND_LAST_WITH_INVALIDATE = 0x16;
    /** RC SEND Only with Invalidate. */
    public static final int RC_SEND_ONLY_WITH_INVALIDATE = 0x17;
    /** RC FLUSH (IBTA 1.5). */
    public static final int RC_FLUSH = 0x1C;
    /** RC ATOMIC WRITE (IBTA 1.5). */
    public static final int RC_ATOMIC_WRITE = 0x1D;
    /** Offset of the UC transport's opcodes (UC = 0x20 + op). */
    public static final int UC_BASE = 0x20;
    /** UD SEND Only. */
    public static final int UD_SEND_ONLY = 0x64;
    /** UD SEND Only with Immediate. */
    public static final int UD_SEND_ONLY_WITH_IMMEDIATE = 0x65;
    /** Congestion Notification Packet. */
    public static final int CNP = 0x81;

    private static final int[] RC_HEADER_LENGTH_AFTER_BTH = new int[0x20];
    private static final String[] RC_NAMES = new String[0x20];
    private static final String[] UC_NAMES = new String[RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE + 1];

    static
    {
        java.util.Arrays.fill(RC_HEADER_LENGTH_AFTER_BTH, -1);
        rc(RC_SEND_FIRST, 0, "SEND_FIRST");
        rc(RC_SEND_MIDDLE, 0, "SEND_MIDDLE");
        rc(RC_SEND_LAST, 0, "SEND_LAST");
        rc(RC_SEND_LAST_WITH_IMMEDIATE, 4, "SEND_LAST_WITH_IMMEDIATE");
        rc(RC_SEND_ONLY, 0, "SEND_ONLY");
        rc(RC_SEND_ONLY_WITH_IMMEDIATE, 4, "SEND_ONLY_WITH_IMMEDIATE");
        rc(RC_RDMA_WRITE_FIRST, 16, "RDMA_WRITE_FIRST");
        rc(RC_RDMA_WRITE_MIDDLE, 0, "RDMA_WRITE_MIDDLE");
        rc(RC_RDMA_WRITE_LAST, 0, "RDMA_WRITE_LAST");
        rc(RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, 4, "RDMA_WRITE_LAST_WITH_IMMEDIATE");
        rc(RC_RDMA_WRITE_ONLY, 16, "RDMA_WRITE_ONLY");
        rc(RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 20, "RDMA_WRITE_ONLY_WITH_IMMEDIATE");
        rc(RC_RDMA_READ_REQUEST, 16, "RDMA_READ_REQUEST");
        rc(RC_RDMA_READ_RESPONSE_FIRST, 4, "RDMA_READ_RESPONSE_FIRST");
        rc(RC_RDMA_READ_RESPONSE_MIDDLE, 0, "RDMA_READ_RESPONSE_MIDDLE");
        rc(RC_RDMA_READ_RESPONSE_LAST, 4, "RDMA_READ_RESPONSE_LAST");
        rc(RC_RDMA_READ_RESPONSE_ONLY, 4, "RDMA_READ_RESPONSE_ONLY");
        rc(RC_ACKNOWLEDGE, 4, "ACKNOWLEDGE");
        rc(RC_ATOMIC_ACKNOWLEDGE, 12, "ATOMIC_ACKNOWLEDGE");
        rc(RC_COMPARE_SWAP, 28, "COMPARE_SWAP");
        rc(RC_FETCH_ADD, 28, "FETCH_ADD");
        rc(RC_SEND_LAST_WITH_INVALIDATE, 4, "SEND_LAST_WITH_INVALIDATE");
        rc(RC_SEND_ONLY_WITH_INVALIDATE, 4, "SEND_ONLY_WITH_INVALIDATE");
        rc(RC_FLUSH, 20, "FLUSH");
        rc(RC_ATOMIC_WRITE, 16, "ATOMIC_WRITE");
    }

    private RoceOpcode()
    {
    }

    private static void rc(final int op, final int length, final String name)
    {
        RC_HEADER_LENGTH_AFTER_BTH[op] = length;
        RC_NAMES[op] = name;
    }

    /**
     * Bytes of extension headers between the end of the BTH and the payload (RETH 16, AtomicETH 28, AETH 4,
     * AETH + AtomicAckETH 12, ImmDt 4, DETH 8, ...). Add {@link BthFlyweight#LENGTH} for the rxe table value.
     *
     * @param opcode a BTH opcode.
     * @return the length, or -1 if the opcode is unknown or reserved.
     */
    public static int headerLengthAfterBth(final int opcode)
    {
        if (opcode >= 0 && opcode < 0x20)
        {
            return RC_HEADER_LENGTH_AFTER_BTH[opcode];
        }
        if (opcode >= UC_BASE && opcode <= UC_BASE + RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE)
        {
            // UC has SEND and WRITE only, laid out as for RC.
            return RC_HEADER_LENGTH_AFTER_BTH[opcode - UC_BASE];
        }
        switch (opcode)
        {
            case UD_SEND_ONLY:
                return 8;
            case UD_SEND_ONLY_WITH_IMMEDIATE:
                return 12;
            case CNP:
                return 16;
            default:
                return -1;
        }
    }

    /**
     * @param opcode a BTH opcode.
     * @return header length from the start of the BTH to the payload, or -1 if unknown.
     */
    public static int headerLength(final int opcode)
    {
        final int after = headerLengthAfterBth(opcode);
        return after < 0 ? -1 : BthFlyweight.LENGTH + after;
    }

    /**
     * Can packets with this opcode carry a payload (and so a non-zero PadCnt)?
     *
     * @param opcode a BTH opcode.
     * @return true for SEND, WRITE, READ response and ATOMIC WRITE packets.
     */
    public static boolean carriesPayload(final int opcode)
    {
        final int op = opcode >= UC_BASE && opcode < UC_BASE + 0x20 ? opcode - UC_BASE : opcode;
        if (opcode == UD_SEND_ONLY || opcode == UD_SEND_ONLY_WITH_IMMEDIATE)
        {
            return true;
        }
        if (op < 0 || op >= 0x20)
        {
            return false;
        }
        switch (op)
        {
            case RC_RDMA_READ_REQUEST:
            case RC_ACKNOWLEDGE:
            case RC_ATOMIC_ACKNOWLEDGE:
            case RC_COMPARE_SWAP:
            case RC_FETCH_ADD:
            case RC_FLUSH:
                return false;
            default:
                return RC_HEADER_LENGTH_AFTER_BTH[op] >= 0;
        }
    }

    /**
     * @param opcode a BTH opcode.
     * @return true if a RETH follows the BTH directly.
     */
    public static boolean hasReth(final int opcode)
    {
        final int op = opcode >= UC_BASE && opcode < UC_BASE + 0x20 ? opcode - UC_BASE : opcode;
        return op == RC_RDMA_WRITE_FIRST || op == RC_RDMA_WRITE_ONLY || op == RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE ||
            opcode == RC_RDMA_READ_REQUEST || opcode == RC_ATOMIC_WRITE;
    }

    /**
     * @param opcode a BTH opcode.
     * @return true if an AETH follows the BTH directly.
     */
    public static boolean hasAeth(final int opcode)
    {
        return opcode == RC_ACKNOWLEDGE || opcode == RC_ATOMIC_ACKNOWLEDGE || opcode == RC_RDMA_READ_RESPONSE_FIRST ||
            opcode == RC_RDMA_READ_RESPONSE_LAST || opcode == RC_RDMA_READ_RESPONSE_ONLY;
    }

    /**
     * @param opcode a BTH opcode.
     * @return true if a DETH follows the BTH (UD SEND Only, with or without immediate).
     */
    public static boolean hasDeth(final int opcode)
    {
        return opcode == UD_SEND_ONLY || opcode == UD_SEND_ONLY_WITH_IMMEDIATE;
    }

    /**
     * @param opcode a BTH opcode.
     * @return true if an AtomicETH follows the BTH.
     */
    public static boolean hasAtomicEth(final int opcode)
    {
        return opcode == RC_FETCH_ADD || opcode == RC_COMPARE_SWAP;
    }

    /**
     * @param opcode a BTH opcode.
     * @return a display name such as {@code RC_RDMA_WRITE_ONLY} (constant strings, no allocation).
     */
    public static String name(final int opcode)
    {
        if (opcode >= 0 && opcode < 0x20 && RC_NAMES[opcode] != null)
        {
            return RC_NAMES[opcode];
        }
        if (opcode >= UC_BASE && opcode <= UC_BASE + RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE &&
            RC_NAMES[opcode - UC_BASE] != null)
        {
            return UC_NAMES[opcode - UC_BASE];
        }
        switch (opcode)
        {
            case UD_SEND_ONLY:
                return "UD_SEND_ONLY";
            case UD_SEND_ONLY_WITH_IMMEDIATE:
                return "UD_SEND_ONLY_WITH_IMMEDIATE";
            case CNP:
                return "CNP";
            default:
                return "UNKNOWN";
        }
    }

    static
    {
        for (int i = 0; i < UC_NAMES.length; i++)
        {
            UC_NAMES[i] = "UC_" + RC_NAMES[i];
        }
        for (int i = 0; i < RC_NAMES.length; i++)
        {
            if (RC_NAMES[i] != null)
            {
                RC_NAMES[i] = "RC_" + RC_NAMES[i];
            }
        }
    }
}

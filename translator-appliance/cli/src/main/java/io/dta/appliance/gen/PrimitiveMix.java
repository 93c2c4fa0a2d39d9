package io.dta.appliance.gen;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The primitives valid reports are drawn from, by weight: the mix of {@code --mix} (or the default one) less the
 * primitives the selected collectors cannot take, and less sketch once its streams have ended.
 */
final class PrimitiveMix
{
    private static final Primitive[] PRIMITIVE_VALUES = Primitive.values();
    private static final int PRIMITIVES = PRIMITIVE_VALUES.length;

    private final int[] weights = new int[PRIMITIVES];
    private final int[] cumulative = new int[PRIMITIVES];
    private int total;
    private final List<Primitive> omitted;

    /**
     * @param settings the mix asked for.
     * @param targets  what the selected collectors take.
     * @throws GeneratorSettingsException ({@code --mix}) when an explicit mix names a primitive no selected collector
     *                                    takes, or none is left.
     */
    PrimitiveMix(final GeneratorSettings settings, final GeneratorTargets targets)
    {
        final List<Primitive> left = new ArrayList<>();
        int sum = 0;
        for (final Primitive primitive : PRIMITIVE_VALUES)
        {
            int weight = settings.mixWeight(primitive);
            if (weight > 0 && !targets.available(primitive))
            {
                if (settings.mixExplicit())
                {
                    throw new GeneratorSettingsException("--mix", primitive.cliName() + " needs " +
                        GeneratorTargets.requirement(primitive) + ", and no selected collector has one");
                }
                left.add(primitive);
                weight = 0;
            }
            sum += weight;
            weights[primitive.ordinal()] = weight;
            cumulative[primitive.ordinal()] = sum;
        }
        if (sum == 0)
        {
            throw new GeneratorSettingsException("--mix", "the selected collectors support none of the primitives");
        }
        total = sum;
        omitted = Collections.unmodifiableList(left);
    }

    /**
     * @param random the generator's random source (one draw).
     * @return a primitive, drawn by weight.
     */
    Primitive pick(final SplittableRandom random)
    {
        final int draw = random.nextInt(total);
        for (int i = 0; i < PRIMITIVES; i++)
        {
            if (draw < cumulative[i])
            {
                return PRIMITIVE_VALUES[i];
            }
        }
        throw new IllegalStateException("unreachable: draw " + draw + " outside mix total " + total);
    }

    /**
     * @param primitive a primitive to draw no more (its traffic ended).
     */
    void drop(final Primitive primitive)
    {
        weights[primitive.ordinal()] = 0;
        int sum = 0;
        for (int i = 0; i < PRIMITIVES; i++)
        {
            sum += weights[i];
            cumulative[i] = sum;
        }
        total = sum;
    }

    /**
     * @param primitive a primitive.
     * @return whether it is drawn at all.
     */
    boolean has(final Primitive primitive)
    {
        return weights[primitive.ordinal()] > 0;
    }

    /**
     * @return true when nothing is left to draw.
     */
    boolean empty()
    {
        return 0 == total;
    }

    /**
     * @param primitive a primitive.
     * @return its share of the draws, 0..1.
     */
    double share(final Primitive primitive)
    {
        final int i = primitive.ordinal();
        return (cumulative[i] - (i == 0 ? 0 : cumulative[i - 1])) / (double)total;
    }

    /**
     * @return primitives of the default mix left out because the selected collectors cannot take them.
     */
    List<Primitive> omitted()
    {
        return omitted;
    }
}

package io.dta.appliance.gen;

/**
 * A generator setting is invalid or does not fit the configuration. Names the command-line option at fault so the
 * CLI can say which one to fix.
 */
public final class GeneratorSettingsException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final String option;

    /**
     * @param option  the command-line option at fault, e.g. {@code --mix}.
     * @param problem what is wrong with it.
     */
    public GeneratorSettingsException(final String option, final String problem)
    {
        super(option + ": " + problem);
        this.option = option;
    }

    /**
     * @return the command-line option at fault.
     */
    public String option()
    {
        return option;
    }
}

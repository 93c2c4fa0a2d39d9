package io.dta.appliance.cli;

import picocli.CommandLine;

/**
 * Reports the build's version from the jar manifest, falling back to "development" in an IDE.
 */
public final class VersionProvider implements CommandLine.IVersionProvider
{
    /**
     * {@inheritDoc}
     */
    @Override
    public String[] getVersion()
    {
        final String version = DtaCommand.class.getPackage().getImplementationVersion();
        return new String[] {
            "dta " + (null == version ? "development" : version),
            "JVM " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")" };
    }
}

package io.dta.appliance.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Says what went wrong with a file in words an operator reads: the message of a {@link FileSystemException} is often
 * only the path (a {@link NoSuchFileException} under {@code /proc}, say), so "cannot create X: X" told nothing.
 */
public final class FileErrors
{
    private FileErrors()
    {
    }

    /**
     * @param ex why a file could not be created, read or locked.
     * @return the file concerned (when the exception names one) and the reason, or the exception's message.
     */
    public static String reason(final IOException ex)
    {
        if (ex instanceof final FileSystemException f)
        {
            final String kind = switch (f)
            {
                case final NoSuchFileException ignored -> "no such file or directory";
                case final AccessDeniedException ignored -> "permission denied";
                // Creating a file or its directories: the path named exists, and not as the directory needed.
                case final FileAlreadyExistsException ignored -> "exists and is not a directory";
                case final NotDirectoryException ignored -> "not a directory";
                default -> ex.getClass().getSimpleName();
            };
            return (null == f.getFile() ? "" : f.getFile() + ": ") + (null == f.getReason() ? kind : f.getReason());
        }
        return String.valueOf(ex.getMessage());
    }
}

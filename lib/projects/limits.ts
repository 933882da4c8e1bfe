// The limits of a project (docs/decisions/036-projects.md, 037-project-files.md), in one pure module: the routes,
// the data layer and the export format (lib/export/format.ts) hold an import to the same numbers as an edit or an
// upload.

/** The most projects a user may have (and their list returns). */
export const MAX_PROJECTS = 500;
/** The most files one project may hold. */
export const MAX_FILES_PER_PROJECT = 100;
/** Most text one file may hold once extracted (about 2 000 passages). */
export const MAX_PROJECT_FILE_CHARS = 2_000_000;
/** The most characters of a project's name. */
export const MAX_PROJECT_NAME_CHARS = 100;

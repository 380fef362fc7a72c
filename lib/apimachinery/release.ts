/**
 * The API release this server implements (the v1.30 era): the version document, metric
 * stability and deprecation rules compare against it (spec 001 § Versioning). Pure constants.
 */

/** Major release number of the API, as `/version` gives it (`"1"`). */
export const API_MAJOR = '1';
/** Minor release number of the API, as `/version` gives it (`"30"`). */
export const API_MINOR = '30';

// The server's Content-Security-Policy allows no eval. Zod probes for it (`new Function('')`) when it
// builds its first object schema, and the refused probe is reported as a violation on every page. This
// classic script runs before the app's modules and tells zod (through the global config it reads) to
// parse without compiling; it cannot live in a module, whose shared chunk builds schemas first.
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

import { configure } from '@testing-library/react';

// What a test waits to see (findBy…, waitFor) may take longer than Testing Library's 1 s on a
// busy 2-core machine — another `npm test` beside this one, a browser suite — where a screen of
// react-admin renders in seconds. A test still fails when its text never comes; it waits longer first.
configure({ asyncUtilTimeout: 10_000 });

import { localStorageStore, type Store } from 'react-admin';
import { STORE_APP_KEY, STORE_VERSION } from '../i18n/locale';

/** The device's own preferences: they outlive a logout (the next person on this phone keeps them). */
const DEVICE_KEYS = ['locale', 'sidebar.open'];

const base = localStorageStore(STORE_VERSION, STORE_APP_KEY);

/**
 * react-admin's store in local storage. Logout resets it (lists' filters and pages are the
 * user's), but keeps the language and the sidebar state, which belong to the device.
 */
export const store: Store = {
  ...base,
  reset() {
    const kept = DEVICE_KEYS.map((key) => [key, base.getItem(key)] as const);
    base.reset();
    for (const [key, value] of kept) if (value !== undefined) base.setItem(key, value);
  },
};

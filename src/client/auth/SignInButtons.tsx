import type { Locale } from '../i18n/locale';
import type { Translate } from '../i18n/messages';
import { ProviderMark } from './ProviderMark';
import { Spinner } from './PublicScreen';
import type { SignInProvider } from './signInFlow';

/** What a provider's button says: Microsoft's and Google's by their names, another by the name the school gave it in this language. */
export function providerButtonText(provider: SignInProvider, locale: Locale, translate: Translate): string {
  if (provider.kind === 'microsoft') return translate('qe.signIn.withMicrosoft');
  if (provider.kind === 'google') return translate('qe.signIn.withGoogle');
  return translate('qe.signIn.withProvider', { name: locale === 'en' ? provider.nameEn : provider.nameHk });
}

/**
 * Below the password form of the login screen: one button per identity provider the school has
 * enabled, in its order — each with the provider's mark, as wide as the form, reached with Tab.
 * Nothing when there is none. `starting`: the provider whose page is being opened (all wait).
 */
export function SignInButtons({ providers, locale, translate, starting, onChoose }: { providers: SignInProvider[]; locale: Locale; translate: Translate; starting: number | null; onChoose: (provider: SignInProvider) => void }) {
  if (providers.length === 0) return null;
  return (
    <div className="qe-p-providers" role="group" aria-label={translate('qe.signIn.accounts')} data-testid="sign-in-providers">
      <p className="qe-p-or" aria-hidden="true">
        <span>{translate('qe.signIn.or')}</span>
      </p>
      {providers.map((p) => (
        <button
          key={p.id}
          type="button"
          className="qe-p-provider"
          disabled={starting !== null}
          aria-busy={starting === p.id}
          onClick={() => onChoose(p)}
          data-testid={`sign-in-provider-${p.id}`}
          data-kind={p.kind}
        >
          {starting === p.id ? <Spinner size={20} /> : <ProviderMark kind={p.kind} />}
          <span>{providerButtonText(p, locale, translate)}</span>
        </button>
      ))}
    </div>
  );
}

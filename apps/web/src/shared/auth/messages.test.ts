import { describe, expect, it } from 'vitest';
import { loginFailureText, loginPageError, offersFreshLink } from './messages';

describe('login page messages (SPEC section 8)', () => {
  it('maps the error query values', () => {
    expect(loginPageError('invalid-magic-link')).toBe('The magic link is invalid or malformed.');
    expect(loginPageError('expired-magic-link')).toBe('The magic link has expired or has already been used.');
    expect(loginPageError('magic-link-error')).toBe(
      'There was an error processing your magic link. Please contact support.',
    );
    expect(loginPageError('anything-else')).toBe('An error occurred. Please try again.');
    expect(offersFreshLink('expired-magic-link')).toBe(true);
    expect(offersFreshLink('magic-link-error')).toBe(false);
  });

  it('maps sign-in failures', () => {
    expect(loginFailureText('Invalid email or password', 401)).toBe(
      'The username or password you entered is incorrect. Please check your credentials and try again.',
    );
    expect(loginFailureText('Please sign in', 401)).toBe(
      'Authentication failed. Please verify your login credentials.',
    );
    expect(loginFailureText('Failed to fetch')).toBe(
      'Connection error. Please check your internet connection and try again.',
    );
    expect(loginFailureText('NetworkError when attempting to fetch resource.')).toBe(
      'Connection error. Please check your internet connection and try again.',
    );
    const pending = 'Your application is still under review. You can sign in once it has been approved.';
    expect(loginFailureText(pending, 403)).toBe(pending);
    expect(loginFailureText('', 500)).toBe('Login failed. Please try again.');
  });
});

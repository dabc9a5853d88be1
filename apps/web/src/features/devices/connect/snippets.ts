/** The SDK snippets of the connect screen, filled with the account's key and this server's address. */
export interface Snippet {
  /** Tab label. */
  label: string;
  /** `code_snippet_copied` event data (spec 000 §7.5). */
  platform: 'ios' | 'android' | 'javascript';
  language: 'swift' | 'kotlin' | 'typescript';
  /** Where the code goes. */
  hint: string;
  code: string;
}

export function connectSnippets(apiKey: string, serverUrl: string): Snippet[] {
  const key = JSON.stringify(apiKey);
  const server = JSON.stringify(serverUrl);
  return [
    {
      label: 'iOS',
      platform: 'ios',
      language: 'swift',
      hint: 'In your AppDelegate, when the app has finished launching:',
      code: [
        'import Spyglass',
        '',
        'func application(_ application: UIApplication,',
        '                 didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {',
        '    Spyglass.start(',
        `        apiKey: ${key},`,
        `        serverURL: URL(string: ${server})!`,
        '    )',
        '    return true',
        '}',
      ].join('\n'),
    },
    {
      label: 'Android',
      platform: 'android',
      language: 'kotlin',
      hint: 'In your Application class:',
      code: [
        'import io.spyglass.Spyglass',
        '',
        'class App : Application() {',
        '    override fun onCreate() {',
        '        super.onCreate()',
        '        Spyglass.start(',
        '            context = this,',
        `            apiKey = ${key},`,
        `            serverUrl = ${server},`,
        '        )',
        '    }',
        '}',
      ].join('\n'),
    },
    {
      label: 'JavaScript',
      platform: 'javascript',
      language: 'typescript',
      hint: 'With @spyglass/sdk in your app (Node 20+, browsers, React Native), when it starts:',
      code: [
        "import { createSpyglass } from '@spyglass/sdk';",
        '',
        'const spyglass = createSpyglass({',
        `  serverUrl: ${quote(serverUrl)},`,
        `  apiKey: ${quote(apiKey)},`,
        "  device: { name: 'My app', clientAppVersion: '1.0.0' },",
        '});',
        '',
        '// fetch and XMLHttpRequest are captured from now on; logs and events are one call:',
        "spyglass.log('Hello from my app', { level: 'info' });",
        "spyglass.event('app_started');",
      ].join('\n'),
    },
  ];
}

/** A single-quoted JavaScript string literal. */
function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * What the connect screen's QR code holds: a link to this server's web companion carrying the key
 * as `api-key`. Opened on a phone it connects the phone's browser as a device; a companion app
 * reads the server and the key from the same link.
 */
export function connectLink(origin: string, apiKey: string): string {
  const url = new URL('/companion', origin);
  url.searchParams.set('api-key', apiKey);
  return url.toString();
}

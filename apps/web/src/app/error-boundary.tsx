import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPanel } from '../ui/error-panel';

interface State {
  error: Error | null;
}

/**
 * Catches a render error below it and shows the generic panel instead of a blank page. `resetKey`
 * (the address) lets the user leave a broken screen through the sidebar without a reload.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Render error', error, info.componentStack);
  }

  override componentDidUpdate(previous: { resetKey?: string }): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override render(): ReactNode {
    if (this.state.error) return <ErrorPanel message={this.state.error.message} />;
    return this.props.children;
  }
}

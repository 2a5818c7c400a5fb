import './zodJitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { App } from './App';
import { applyTheme, readTheme } from './components/theme';

// Set the theme before the first paint so a dark room never sees a white flash.
applyTheme(readTheme());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

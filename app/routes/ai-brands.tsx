export default function Page() {
  return <h1>ai-brands</h1>;
}

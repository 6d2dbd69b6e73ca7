export default function Page() {
  return <h1>board</h1>;
}
